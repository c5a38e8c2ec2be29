/** Text shared by the commands: configuration summaries (hook reports are in review-report.ts). */
import type { LoadedConfiguration } from '@hookgate/config';

export function summarizeConfiguration(c: LoadedConfiguration): string {
  let mutating = 0;
  let validating = 0;
  for (const w of c.webhookConfigurations) {
    if (w.kind === 'MutatingWebhookConfiguration') mutating += w.webhooks.length;
    else validating += w.webhooks.length;
  }
  return `${mutating} mutating and ${validating} validating hook(s) in ${c.webhookConfigurations.length} webhook configuration(s), ${c.gateway.plugins.length} plugin(s)`;
}
