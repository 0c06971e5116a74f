import { placeOrder, OrderRejectedError } from '../services/order-service';
import type { Order } from '../models/order';

/** POST /orders: places an order and returns its total and summary. */
export async function postOrder(request: Request): Promise<Response> {
  const order = (await request.json()) as Order;
  try {
    const result = await placeOrder(order);
    return Response.json(result, { status: 201 });
  } catch (error) {
    if (error instanceof OrderRejectedError) return Response.json({ issues: error.issues }, { status: 422 });
    throw error;
  }
}
