/**
 * The metrics listener: /metrics (Prometheus text, aggregated across workers by the MetricsSource),
 * /livez and /readyz. Separate from admission so scraping can be opened to the network while
 * admission stays on loopback.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { MetricsSource } from '@hookgate/observability';

export interface HealthServerOptions {
  readonly metrics: MetricsSource;
  /** Why the gateway is not ready yet (undefined when ready): configuration not loaded, admission not listening, shutting down. */
  readonly notReadyReason: () => string | undefined;
}

export function buildHealthServer(options: HealthServerOptions): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/livez', async (_request, reply) => reply.type('text/plain').send('ok'));
  app.get('/readyz', async (_request, reply) => {
    const reason = options.notReadyReason();
    if (reason === undefined) return reply.type('text/plain').send('ok');
    return reply.code(503).type('text/plain').send(`not ready: ${reason}`);
  });
  app.get('/metrics', async (_request, reply) => {
    try {
      const text = await options.metrics.collect();
      return reply.type(options.metrics.contentType).send(text);
    } catch (error) {
      return reply
        .code(500)
        .type('text/plain')
        .send(`metrics unavailable: ${(error as Error).message}`);
    }
  });
  return app;
}
