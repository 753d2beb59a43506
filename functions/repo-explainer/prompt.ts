/**
 * The messages of a repository explanation: a system message and one user message holding
 * the gathered text (metadata, top-level files, manifest, README), capped at 6000 characters.
 */
import {
  type ChatMessage,
  MAX_MODEL_TEXT_CHARS,
  truncateText,
} from "../../shared/bindings/ai/mod.ts";
import type { RepoSnapshot } from "./github_api.ts";

/** The system instruction: a helpful assistant that explains repositories. */
export const EXPLAIN_SYSTEM_PROMPT =
  "You are a helpful assistant that explains software repositories. From the repository's " +
  "metadata, top-level files, manifest and README, explain in a short paragraph what the " +
  "project is, how it is organised and how to get started with it.";

/** Top-level entries listed in the prompt at most. */
export const MAX_PROMPT_FILES = 100;

/** Characters of the manifest put in the prompt at most (the README gets the rest). */
export const MAX_PROMPT_MANIFEST_CHARS = 1500;

/**
 * The user message: the gathered text, README last so that it is what the cap cuts. Empty
 * when the repository has nothing to explain (no description, files, manifest or README).
 */
export function explainUserMessage(repo: RepoSnapshot): string {
  const readme = repo.readme?.trim() ?? "";
  if (!repo.description && repo.files.length === 0 && !repo.manifest && !readme) return "";
  const header = [
    `Repository: ${repo.fullName}`,
    repo.description && `Description: ${repo.description}`,
    repo.language && `Language: ${repo.language}`,
    repo.topics.length > 0 && `Topics: ${repo.topics.join(", ")}`,
    repo.license && `License: ${repo.license}`,
    `Stars: ${repo.stars}`,
  ].filter(Boolean).join("\n");
  const sections = [header];
  if (repo.files.length > 0) {
    const more = repo.files.length > MAX_PROMPT_FILES
      ? ` (and ${repo.files.length - MAX_PROMPT_FILES} more)`
      : "";
    sections.push(`Top-level files: ${repo.files.slice(0, MAX_PROMPT_FILES).join(", ")}${more}`);
  }
  if (repo.manifest) {
    const content = truncateText(repo.manifest.content.trim(), MAX_PROMPT_MANIFEST_CHARS);
    sections.push(`Manifest (${repo.manifest.name}):\n${content}`);
  }
  if (readme) sections.push(`README:\n${readme}`);
  return truncateText(sections.join("\n\n"), MAX_MODEL_TEXT_CHARS);
}

/** The two messages sent to the model for a repository. */
export function explainMessages(userMessage: string): ChatMessage[] {
  return [
    { role: "system", content: EXPLAIN_SYSTEM_PROMPT },
    { role: "user", content: userMessage },
  ];
}
