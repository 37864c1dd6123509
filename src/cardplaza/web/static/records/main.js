// Game records in the browser: the hand's history at the table.
import { registerExtension } from "../table.js";
import "./texts.js";
import { historyExtension } from "./history.js";

registerExtension(historyExtension);
