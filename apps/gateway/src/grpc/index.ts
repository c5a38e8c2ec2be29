/**
 * The gateway's side of calling plugins: the HookInvoker that turns a HookCall into an admit call
 * on the plugin's client (@hookgate/plugin-client) and its outcome into a HookReply in the
 * apiserver's wording. The clients themselves are kept by runtime/plugin-set.ts.
 *
 *   // per admission review, in the route (body: the raw request Buffer, review: its decoding):
 *   const { invoke, invokeTogether } = pluginTransport(state.plugins, { received: { bytes: body, form: 'review', request: review.request } });
 */
export {
  pluginInvoker,
  pluginTransport,
  type PluginClients,
  type PluginInvokerOptions,
  type PluginTransport,
} from './plugin-invoker.js';
export type { ReceivedRequest } from './received-request.js';
export { pluginUrl } from './failures.js';
