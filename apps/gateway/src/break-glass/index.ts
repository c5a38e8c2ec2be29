/** The break-glass switch: every hook fails open while `<stateDir>/break-glass` exists. */
export {
  BREAK_GLASS_FILE,
  breakGlassPath,
  readBreakGlass,
  switchBreakGlassOn,
  switchBreakGlassOff,
  type BreakGlassState,
} from './break-glass-file.js';
export { watchBreakGlass, BREAK_GLASS_POLL_MS, type BreakGlassWatch } from './watch-break-glass.js';
