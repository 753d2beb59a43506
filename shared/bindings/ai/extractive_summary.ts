/**
 * The embedded offline summariser behind the `AI` binding's default: it picks the most
 * representative sentences of a text (word-frequency scoring, a bonus for title words and for
 * early sentences) and returns them in their original order. Deterministic, no network, and
 * never longer than its character bound.
 */

/** Default bound on the summary's length, in characters. */
export const EXTRACTIVE_MAX_CHARS = 600;

/** Default number of sentences a summary may hold. */
export const EXTRACTIVE_MAX_SENTENCES = 3;

/** Options of one extractive summary. */
export interface ExtractiveOptions {
  /** Words of the title count extra (null or "N/A": no title). */
  title?: string | null;
  /** Upper bound on the result's length (default {@link EXTRACTIVE_MAX_CHARS}). */
  maxChars?: number;
  /** Upper bound on the number of sentences (default {@link EXTRACTIVE_MAX_SENTENCES}). */
  maxSentences?: number;
}

/** Common English words that say nothing about a text's subject. */
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before " +
    "being below between both but by can could did do does doing down during each few for from " +
    "further had has have having he her here hers herself him himself his how i if in into is it " +
    "its itself just let me more most my myself no nor not now of off on once only or other our " +
    "ours ourselves out over own same she should so some such than that the their theirs them " +
    "themselves then there these they this those through to too under until up us very was we " +
    "were what when where which while who whom why will with would you your yours yourself " +
    "yourselves one two may might must shall much many via use used using get got make made"
  ).split(" "),
);

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set(
  "e.g i.e etc vs mr mrs ms dr prof sr jr st no fig al approx inc ltd co corp dept est".split(" "),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Content words of a text, lowercased, stop words and one-letter words left out. */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/**
 * Removes what is markup rather than prose (markdown code fences, images, link targets,
 * heading marks, HTML tags, bare URLs), so READMEs and pages read as sentences.
 */
export function plainProse(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, "\n")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, " ")
    .replace(/\bhttps?:\/\/\S+/g, " ")
    .replace(/^\s{0,3}(?:#{1,6}|[-*+>]|\d+[.)])\s+/gm, "")
    .replace(/[*_`]{1,3}([^*_`\n]+)[*_`]{1,3}/g, "$1");
}

/** Splits text into sentences: at line breaks, and after `.`, `!`, `?` unless an abbreviation. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\n+/)) {
    const boundary = /[.!?…]+["'”’)\]]*\s+/g;
    let start = 0;
    for (const m of line.matchAll(boundary)) {
      const end = m.index + m[0].length;
      const before = line.slice(start, m.index).split(/\s+/).pop()?.toLowerCase() ?? "";
      // "e.g. x", "Dr. Who", "J. Smith": the stop is part of a word, not the sentence's end.
      if (m[0].startsWith(".") && (ABBREVIATIONS.has(before) || /^\p{L}$/u.test(before))) continue;
      sentences.push(line.slice(start, end));
      start = end;
    }
    sentences.push(line.slice(start));
  }
  return sentences.map((s) => s.replace(/\s+/g, " ").trim()).filter((s) => s.length > 0);
}

/** True when a sentence reads as prose: enough words, mostly letters, not code or data. */
function isProse(sentence: string): boolean {
  const words = sentence.match(WORD) ?? [];
  if (words.length < 4 || words.length > 120) return false;
  // A short line with no closing punctuation is a heading or a label, not a sentence.
  if (words.length < 8 && !/[.!?…]["'”’)\]]*$/.test(sentence)) return false;
  const letters = sentence.match(/\p{L}/gu)?.length ?? 0;
  if (letters / sentence.length < 0.6) return false;
  return !/[{};=<>|]|=>|:\s*$/.test(sentence);
}

interface Candidate {
  index: number;
  text: string;
  words: Set<string>;
  score: number;
}

/** Cuts text at a word boundary so that it, with an ellipsis, fits in `maxChars`. */
export function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const room = text.slice(0, Math.max(0, maxChars - 1));
  const cut = room.replace(/\s+\S*$/, "");
  return (cut.length > 0 ? cut : room).trimEnd() + "…";
}

/** Jaccard similarity of two word sets. */
function similarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

/**
 * The extractive summary of `text`: its best sentences in original order, at most
 * `maxSentences` of them and `maxChars` characters in all. A text with no prose sentence gives
 * its opening, clipped; an empty text gives null.
 */
export function extractiveSummary(text: string, options: ExtractiveOptions = {}): string | null {
  const maxChars = options.maxChars ?? EXTRACTIVE_MAX_CHARS;
  const maxSentences = options.maxSentences ?? EXTRACTIVE_MAX_SENTENCES;
  const prose = plainProse(text);
  const sentences = splitSentences(prose);
  if (sentences.length === 0) return null;

  const candidates: Candidate[] = sentences
    .map((s, index) => ({ index, text: s, words: new Set(contentWords(s)), score: 0 }))
    .filter((c) => isProse(c.text) && c.words.size > 0)
    // A repeated sentence says nothing new and must not inflate its words' frequency.
    .filter((c, i, all) => !all.slice(0, i).some((p) => similarity(p.words, c.words) > 0.7));
  if (candidates.length === 0) return clip(sentences.join(" "), maxChars);

  // How often each content word occurs across the prose: frequent words carry the subject.
  const freq = new Map<string, number>();
  for (const c of candidates) for (const w of c.words) freq.set(w, (freq.get(w) ?? 0) + 1);
  const top = Math.max(...freq.values());
  const titleWords = new Set(
    options.title && options.title !== "N/A" ? contentWords(options.title) : [],
  );

  for (const [rank, c] of candidates.entries()) {
    let weight = 0;
    let fromTitle = 0;
    for (const w of c.words) {
      weight += (freq.get(w) ?? 0) / top;
      if (titleWords.has(w)) fromTitle++;
    }
    // Square root: long sentences gain from more words, but less than linearly.
    c.score = weight / Math.sqrt(c.words.size) +
      (titleWords.size > 0 ? 0.5 * fromTitle / titleWords.size : 0) +
      0.3 * Math.max(0, 1 - rank / 5); // the opening sentences usually state the subject
  }

  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.index - b.index);
  const chosen: Candidate[] = [];
  let length = 0;
  for (const c of ranked) {
    if (chosen.length >= maxSentences) break;
    const added = (chosen.length > 0 ? 1 : 0) + c.text.length;
    if (length + added > maxChars) continue;
    chosen.push(c);
    length += added;
  }
  // Every sentence is longer than the bound: the best one, clipped.
  if (chosen.length === 0) return clip(ranked[0].text, maxChars);
  return chosen.sort((a, b) => a.index - b.index).map((c) => c.text).join(" ");
}
