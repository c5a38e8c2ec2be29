import { describe, expect, it } from 'vitest';
import { unresolvedServiceLog } from './unresolved-service-log.js';

describe('unresolvedServiceLog', () => {
  const service = { namespace: 'policy', name: 'hooks', port: 443 };

  it('logs a hook and cause once a minute, a new cause or another hook at once', () => {
    const lines: { fields: object; message: string }[] = [];
    let now = 0;
    const log = unresolvedServiceLog({ warn: (fields, message) => lines.push({ fields, message }) }, () => now);
    log('a.example.com', service, 'service "hooks" not found');
    log('a.example.com', service, 'service "hooks" not found');
    log('b.example.com', service, 'service "hooks" not found');
    log('a.example.com', service, 'no service port 443 found for service "hooks"');
    now = 60_000;
    log('a.example.com', service, 'no service port 443 found for service "hooks"');
    expect(lines.map((l) => l.fields)).toEqual([
      { hook: 'a.example.com', service: 'policy/hooks', port: 443, error: 'service "hooks" not found' },
      { hook: 'b.example.com', service: 'policy/hooks', port: 443, error: 'service "hooks" not found' },
      {
        hook: 'a.example.com',
        service: 'policy/hooks',
        port: 443,
        error: 'no service port 443 found for service "hooks"',
      },
      {
        hook: 'a.example.com',
        service: 'policy/hooks',
        port: 443,
        error: 'no service port 443 found for service "hooks"',
      },
    ]);
    expect(lines[0]?.message).toContain('create the Service with this port');
  });
});
