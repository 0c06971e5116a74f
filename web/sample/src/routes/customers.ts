import { getCustomer, saveCustomer } from '../services/customer-service';
import type { Customer } from '../models/customer';

/** GET /customers/:id */
export function getCustomerRoute(id: string): Response {
  const customer = getCustomer(id);
  return customer ? Response.json(customer) : new Response('not found', { status: 404 });
}

/** PUT /customers/:id */
export async function putCustomerRoute(request: Request): Promise<Response> {
  const problems = saveCustomer((await request.json()) as Customer);
  return problems.length ? Response.json({ problems }, { status: 422 }) : new Response(null, { status: 204 });
}
