// One POST to a webhook receiver, reduced to what the delivery record keeps of it.
import type { Attempt } from '@berth/shared/domain/notification/delivery';

export type Outcome = Pick<Attempt, 'status' | 'ok' | 'reason'>;

/** `text` with the user name and password of every URL in it left out: failure reasons are recorded in the log. */
export const withoutCredentials = (text: string): string => text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, '$1');

function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const detail = error instanceof Error ? error.cause ?? error.message : error;
  return withoutCredentials(`unreachable: ${String(detail)}`);
}

export async function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<Outcome> {
  try {
    const response = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { status: response.status, ok, reason: ok ? null : `answered HTTP ${response.status}` };
  } catch (error) {
    return { status: null, ok: false, reason: failureOf(error, timeoutMs) };
  }
}
