/**
 * The names most tags and attributes of real pages have, each held as one string. A name read
 * from a page that is one of them (ASCII case-insensitively) is returned as that string
 * instead of a new lowercased slice of the page: no slice and no lowercasing per name, and
 * the maps the parser looks tags up in and the attribute objects it fills get a string V8 has
 * already hashed and interned (a new string is hashed, and interned as an object key, on
 * each use). Any other name is not found here: the caller lowercases a slice as before.
 */

const TAGS = `html head body title meta link script style noscript base template slot div span p a
img picture source video audio track iframe embed object param canvas map area svg math ul ol li
dl dt dd nav header footer main section article aside address h1 h2 h3 h4 h5 h6 hgroup br hr wbr
strong em b i u s small sub sup mark del ins q cite abbr dfn code kbd samp var time data pre
blockquote figure figcaption form input button select option optgroup textarea label fieldset
legend output datalist progress meter table caption colgroup col thead tbody tfoot tr td th
details summary dialog menu center font g path circle rect line polyline polygon ellipse use
defs symbol lineargradient radialgradient stop clippath mask text tspan`;

const ATTRIBUTES = `class id href src rel type name content property charset http-equiv itemprop
itemscope itemtype style alt title width height loading decoding fetchpriority srcset sizes
media as target role async defer nomodule crossorigin integrity referrerpolicy nonce lang dir
hidden tabindex value placeholder action method enctype for autocomplete autofocus checked
selected disabled readonly required multiple min max step maxlength minlength pattern accept
label rows cols colspan rowspan scope headers datetime download poster preload controls
autoplay muted loop playsinline sandbox allow allowfullscreen frameborder scrolling border
cellpadding cellspacing align valign bgcolor color face size span start reversed cite xmlns
xmlns:xlink xlink:href viewbox fill stroke stroke-width stroke-linecap stroke-linejoin d
points x y x1 y1 x2 y2 cx cy r rx ry transform opacity focusable version aria-label
aria-hidden aria-labelledby aria-describedby aria-expanded aria-controls aria-current
aria-haspopup aria-live aria-selected data-src data-srcset data-id data-type data-testid
onclick onload onerror translate contenteditable draggable spellcheck accesskey slot is
translate popover inert`;

/** Longer names are not looked up (long data-* names are rarely repeated). */
const MAX_LENGTH = 16;

/** ASCII upper case lowered, as `toLowerCase` does it; any other code unchanged. */
function lowered(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/** Every name held (lowercase ASCII; `image` is not one: the parser reads it as `img`). */
export const KNOWN_NAMES: readonly string[] = [
  ...new Set(`${TAGS} ${ATTRIBUTES}`.split(/\s+/).filter((name) => name.length <= MAX_LENGTH)),
];

/**
 * A name's length and first character as one key (`length * 128 + code`, the code ASCII
 * lowercased); -1 when that character is not ASCII (or `code` is NaN, past a text's end).
 */
export function startKey(length: number, code: number): number {
  const first = lowered(code);
  return first < 128 ? length * 128 + first : -1;
}

/**
 * The names by length and first character (`startKey`): a lookup reads one
 * character before it compares, where hashing every character first (a table by hash) took
 * 1.4x as long over the 32,541 names of the 500 KiB bench page (2.47 against 1.80 ms), and the
 * lean parse of that page 1-9% longer (alternating in one process).
 */
const BY_START: (string[] | undefined)[] = new Array((MAX_LENGTH + 1) * 128).fill(undefined);
for (const name of KNOWN_NAMES) {
  (BY_START[startKey(name.length, name.charCodeAt(0))] ??= []).push(name);
}

/**
 * The held string equal to `text.slice(start, end).toLowerCase()`, or undefined when that is
 * not one of the names (the caller slices and lowercases then).
 */
export function knownName(text: string, start: number, end: number): string | undefined {
  const length = end - start;
  if (length > MAX_LENGTH) return undefined;
  // `startKey`, written out: called here it made the analyzer's warm request 1.035x as long.
  const first = lowered(text.charCodeAt(start));
  if (!(first < 128)) return undefined; // also NaN, past the text's end
  const names = BY_START[length * 128 + first];
  if (names === undefined) return undefined;
  for (let n = 0; n < names.length; n++) {
    const name = names[n];
    let k = 1;
    while (k < length && lowered(text.charCodeAt(start + k)) === name.charCodeAt(k)) k++;
    if (k === length) return name;
  }
  return undefined;
}
