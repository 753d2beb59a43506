/** `/inspect`'s parse (inspect.ts): bounded like every page parse (issue 21). */
import { createApp } from "../../functions/devtools-inspector/app.ts";
import { parseBoundsTests } from "../support/parse_bounds.ts";

// The checks after the parse belong to their own work (issue 21 is about the parse here):
// the latency test loads /inspect with nested pages only.
parseBoundsTests(createApp, "/inspect", { largePage: false });
