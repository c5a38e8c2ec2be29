/**
 * @hookgate/controller: the side-effect reconciliation controller (BullMQ workers calling each
 * plugin's Reconcile). Run it with `node --import tsx apps/controller/src/main.ts --config FILE`;
 * tests and tools build it in process with buildController.
 */
export { buildController, type Controller, type ControllerOptions } from './build-controller.js';
export {
  CONTROLLER_DEFAULTS,
  loadControllerConfig,
  readControllerConfig,
  type ControllerConfig,
  type ControllerPlugin,
} from './config.js';
