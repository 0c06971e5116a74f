import { postOrder } from './routes/orders';
import { getCustomerRoute, putCustomerRoute } from './routes/customers';

/** The HTTP entry point (any runtime with the Fetch API). */
export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/orders' && request.method === 'POST') return postOrder(request);
    const match = /^\/customers\/([\w-]+)$/.exec(url.pathname);
    if (match && request.method === 'GET') return getCustomerRoute(match[1]!);
    if (match && request.method === 'PUT') return putCustomerRoute(request);
    return new Response('not found', { status: 404 });
  },
};
