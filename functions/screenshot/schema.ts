/**
 * The `/screenshot` query parameters, each read and checked by its own validator without zod
 * (shared/contract/params.ts; the document is made from the same definitions), and the output
 * formats, paper sizes and device presets they offer.
 */
import { isCssSelector } from "./css_selector.ts";
import {
  booleanParam,
  enumParam,
  type Param,
  rangeParam,
  type TypedParam,
  URL_PARAM,
} from "../../shared/contract/params.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { RANGES } from "./limits.ts";

/**
 * An optional numeric query parameter within its range (plain decimals only); anything else is
 * 400 INVALID_INPUT with a message naming the parameter and its range.
 */
function range(name: keyof typeof RANGES, integer: boolean, description: string) {
  const { min, max } = RANGES[name];
  const message = `${name} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}`;
  return rangeParam(min, max, { integer, description, message });
}

/** An optional `true`/`false` query parameter; anything else is 400 naming it. */
function flag(name: string, description: string) {
  return booleanParam({ description, message: `${name} must be true or false` });
}

/** An optional query parameter from a fixed list; anything else is 400 naming it. */
function oneOf<const V extends readonly [string, ...string[]]>(
  name: string,
  values: V,
  description: string,
) {
  return enumParam(values, { description, message: `${name} must be one of ${values.join(", ")}` });
}

/** Output formats and their Content-Type. */
export const FORMATS = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  pdf: "application/pdf",
} as const;

/** An output format. */
export type ImageFormat = keyof typeof FORMATS;

/** Paper sizes of `format=pdf` (puppeteer's `PaperFormat` names, lower case). */
export const PAPERS = [
  "a4",
  "letter",
  "legal",
  "tabloid",
  "ledger",
  "a0",
  "a1",
  "a2",
  "a3",
  "a5",
  "a6",
] as const;

/** A paper size. */
export type Paper = typeof PAPERS[number];

/**
 * The device presets offered (names of puppeteer's `KnownDevices`, each also with
 * " landscape"): current phones and tablets of each family.
 */
export const DEVICE_FAMILY = [
  "iPhone 17 Pro",
  "iPhone 17 Pro Max",
  "iPhone 16",
  "iPhone 15 Pro",
  "iPhone SE (3rd gen)",
  "Pixel 5",
  "Pixel 4a (5G)",
  "Galaxy S9+",
  "Galaxy S8",
  "iPad Pro 11",
  "iPad Mini",
  "iPad (gen 7)",
  "Galaxy Tab S4",
] as const;

/** Every accepted `device` value: each preset, upright and in landscape. */
export const DEVICES: readonly string[] = DEVICE_FAMILY.flatMap((name) => [
  name,
  `${name} landscape`,
]);

/** Longest accepted `selector`, in characters. */
export const MAX_SELECTOR_LENGTH = 500;

/** Longest `waitFor` in milliseconds (it also counts against the navigation timeout). */
export const MAX_WAIT_FOR_MS = 10_000;

const WAIT_FOR_MESSAGE = `waitFor must be milliseconds from 0 to ${MAX_WAIT_FOR_MS} or a CSS ` +
  `selector of at most ${MAX_SELECTOR_LENGTH} characters`;

const SELECTOR_MESSAGE =
  `selector must be a CSS selector of 1 to ${MAX_SELECTOR_LENGTH} characters`;

/** `?url=` plus the optional capture parameters, checked in this order. */
export const SCREENSHOT_QUERY = {
  url: URL_PARAM,
  width: range("width", true, "Viewport width in CSS pixels (default 1280)"),
  height: range("height", true, "Viewport height in CSS pixels (default 800)"),
  fullPage: flag(
    "fullPage",
    "`true` captures the whole scrollable page (up to 16384 device pixels high)",
  ),
  deviceScaleFactor: range(
    "deviceScaleFactor",
    false,
    "Device pixel ratio; the PNG is this many times the viewport (default 1)",
  ),
  format: oneOf(
    "format",
    Object.keys(FORMATS) as [ImageFormat, ...ImageFormat[]],
    "Output format (default png); Content-Type matches. `pdf` prints the page (backgrounds " +
      "included) on `paper`",
  ),
  paper: oneOf("paper", PAPERS, "Paper size of format=pdf (default a4)"),
  landscape: flag("landscape", "`true` prints format=pdf in landscape"),
  hideCookieBanners: flag(
    "hideCookieBanners",
    "`true` hides cookie-consent banners and their overlays (AdGuard Cookie Notices filter " +
      "and DuckDuckGo autoconsent's selectors, packaged with the service)",
  ),
  blockAds: flag(
    "blockAds",
    "`true` blocks ad and tracker requests and hides ad slots (AdGuard Base and Tracking " +
      "Protection filters, packaged with the service)",
  ),
  device: oneOf(
    "device",
    DEVICES as [string, ...string[]],
    "Device preset (viewport, scale factor, touch, mobile, user agent); not with width, " +
      "height or deviceScaleFactor",
  ),
  quality: range("quality", true, "Quality of jpeg and webp (default 80); not for png"),
  colorScheme: oneOf(
    "colorScheme",
    ["light", "dark"],
    "Emulated `prefers-color-scheme` (default: the browser's, light)",
  ),
  reducedMotion: flag("reducedMotion", "`true` emulates `prefers-reduced-motion: reduce`"),
  omitBackground: flag(
    "omitBackground",
    "`true` makes the default white background transparent (png and webp only)",
  ),
  selector: {
    in: "query",
    required: false,
    description: "CSS selector of one element to capture (its box); 502 when none matches",
    schema: { maxLength: MAX_SELECTOR_LENGTH },
    code: "INVALID_INPUT",
    message: SELECTOR_MESSAGE,
    parse(raw) {
      if (raw === undefined) return undefined;
      if (typeof raw === "string" && isSelector(raw)) return raw;
      throw new ApiError(this.code, this.message);
    },
  } satisfies TypedParam<string | undefined>,
  waitFor: {
    in: "query",
    required: false,
    description: `After network idle: milliseconds to wait (0-${MAX_WAIT_FOR_MS}), or a CSS ` +
      "selector that must appear (502 when it does not within the navigation timeout)",
    code: "INVALID_INPUT",
    message: WAIT_FOR_MESSAGE,
    parse(raw) {
      if (raw === undefined) return undefined;
      if (typeof raw === "string") {
        if (/^\d+$/.test(raw)) {
          const ms = Number(raw);
          if (ms <= MAX_WAIT_FOR_MS) return ms;
        } else if (isSelector(raw)) {
          return raw;
        }
      }
      throw new ApiError(this.code, this.message);
    },
  } satisfies Param<number | string | undefined>,
};

/** Whether `raw` is an accepted CSS selector: not blank, not too long, CSS only. */
function isSelector(raw: string): boolean {
  return raw.trim().length > 0 && raw.length <= MAX_SELECTOR_LENGTH && isCssSelector(raw);
}
