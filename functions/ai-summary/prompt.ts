/** The messages of a page summary (contract rule 4): one system message and one user message. */
import type { ChatMessage } from "../../shared/bindings/ai/mod.ts";

/** The system instruction: a helpful assistant that summarises pages. */
export const SUMMARY_SYSTEM_PROMPT =
  "You are a helpful assistant that summarizes web pages. Write a concise, factual summary " +
  "of the page in three to five sentences, in the language of the page.";

/** The user message: the title ("N/A" when the page has none), then the body text. */
export function summaryUserMessage(title: string | null, text: string): string {
  return `Title: ${title ?? "N/A"}\n\nContent:\n${text}`;
}

/** The two messages sent to the model for a page. */
export function summaryMessages(title: string | null, text: string): ChatMessage[] {
  return [
    { role: "system", content: SUMMARY_SYSTEM_PROMPT },
    { role: "user", content: summaryUserMessage(title, text) },
  ];
}
