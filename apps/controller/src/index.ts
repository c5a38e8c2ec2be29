/**
 * @hookgate/controller: the side-effect reconciliation controller (BullMQ workers calling each
 * plugin's Reconcile). Run it with `hookgate-controller --config FILE` (dist/main.js);
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
