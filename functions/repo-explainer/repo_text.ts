/**
 * A repository as one text for a model: a short header, the directory tree, then each file
 * under a banner (the layout gitingest made familiar). Files are counted in tokens and, past
 * the caller's `maxTokens`, dropped largest first until the whole fits; the answer lists them.
 */
import type { ArchiveContents, OmittedFile } from "./archive.ts";
import { type TokenCounter, type TokenReport, tokenReport } from "./tokens.ts";

/** The banner line around each file's path. */
const RULE = "=".repeat(48);

/** What `/digest` answers besides the request's own fields. */
export interface RepoText {
  /** The text: header, tree, files. */
  content: string;
  /** Tokens of each file kept, each directory, and of `content` in total. */
  tokens: TokenReport;
  /** Files left out, and why (`max-tokens`: dropped to fit, largest first). */
  omitted: (OmittedFile & { tokens?: number })[];
}

/** Builds the text of `archive` within `maxTokens` (counted with `counter`). */
export async function repoText(
  heading: { repo: string; ref: string; commit: string | null },
  archive: ArchiveContents,
  counter: TokenCounter,
  maxTokens: number,
): Promise<RepoText> {
  const counted: { path: string; text: string; bytes: number; tokens: number }[] = [];
  for (const f of archive.files) {
    counted.push({ ...f, tokens: await counter.count(section(f.path, f.text)) });
  }
  const head = header(heading);
  const fixed = await counter.count(head);
  // Largest first out until the sections, the tree (it only shrinks) and the header fit.
  const kept = [...counted].sort((a, b) => b.tokens - a.tokens || (a.path < b.path ? -1 : 1));
  const dropped: typeof counted = [];
  let sum = kept.reduce((n, f) => n + f.tokens, 0);
  let treeTokens = await counter.count(tree(kept.map((f) => f.path)));
  while (kept.length > 0 && fixed + treeTokens + sum > maxTokens) {
    const out = kept.shift()!;
    dropped.push(out);
    sum -= out.tokens;
    if (fixed + treeTokens + sum <= maxTokens) break;
    treeTokens = await counter.count(tree(kept.map((f) => f.path)));
  }
  kept.sort((a, b) => (a.path < b.path ? -1 : 1));
  const treeText = tree(kept.map((f) => f.path));
  treeTokens = await counter.count(treeText);
  const content = head + treeText + kept.map((f) => section(f.path, f.text)).join("");
  const report = tokenReport(kept.map((f) => ({ path: f.path, tokens: f.tokens })), counter.exact);
  report.total = fixed + treeTokens + sum;
  return {
    content,
    tokens: report,
    omitted: [
      ...archive.omitted,
      ...dropped.map((f) => ({
        path: f.path,
        reason: "max-tokens" as const,
        bytes: f.bytes,
        tokens: f.tokens,
      })),
    ],
  };
}

function header(h: { repo: string; ref: string; commit: string | null }): string {
  return `Repository: ${h.repo}\nRef: ${h.ref}\n${h.commit ? `Commit: ${h.commit}\n` : ""}\n`;
}

/** One file under its banner. */
export function section(path: string, text: string): string {
  return `${RULE}\nFILE: ${path}\n${RULE}\n${text}${text.endsWith("\n") ? "" : "\n"}\n`;
}

/** The directory tree of sorted paths: one line per folder (ending in `/`) and file, indented. */
export function tree(paths: readonly string[]): string {
  const lines = ["Directory structure:"];
  let previous: string[] = [];
  for (const path of [...paths].sort()) {
    const parts = path.split("/");
    let same = 0;
    while (same < parts.length - 1 && previous[same] === parts[same]) same++;
    for (let i = same; i < parts.length - 1; i++) lines.push(`${"  ".repeat(i)}${parts[i]}/`);
    lines.push(`${"  ".repeat(parts.length - 1)}${parts[parts.length - 1]}`);
    previous = parts;
  }
  return lines.join("\n") + "\n\n";
}
