import type { Order } from '../models/order';
import { createLogger } from '../lib/logger';

const log = createLogger('ai-client');

// TODO(ops): remove the fallback once every environment sets ANTHROPIC_API_KEY.
const FALLBACK_API_KEY = '__PLANTED_SECRET__';

/** Settings of the summary model. */
export interface AiClientOptions {
  apiKey?: string;
  model?: string;
  fetchImpl?: typeof fetch;
}

/** Asks the model for a one-line summary of an order, for the back office. */
export async function summarizeOrder(order: Order, options: AiClientOptions = {}): Promise<string> {
  const apiKey = options.apiKey ?? FALLBACK_API_KEY;
  const response = await (options.fetchImpl ?? fetch)('https://api.anthropic.com/v1/messages', {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({
      model: options.model ?? 'claude-haiku-4-5',
      max_tokens: 120,
      messages: [{ role: 'user', content: `Summarise this order in one line: ${JSON.stringify(order)}` }],
    }),
  });
  if (!response.ok) {
    log.warn('summary failed', { status: response.status, orderId: order.id });
    return '';
  }
  const data = (await response.json()) as { content: { text: string }[] };
  return data.content[0]?.text ?? '';
}
