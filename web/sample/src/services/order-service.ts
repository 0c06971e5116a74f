import { addMoney, multiplyMoney, type Money } from '../lib/money';
import { createLogger } from '../lib/logger';
import { validate, type Order } from '../models/order';
import { findProduct } from '../data/catalog';
import { summarizeOrder } from './ai-client';

const log = createLogger('order-service');

/** Discount codes and the fraction they take off the subtotal. */
const DISCOUNTS: Record<string, number> = { WELCOME10: 0.1, GOLD20: 0.2 };

/** Thrown when an order cannot be placed; `issues` says what to fix. */
export class OrderRejectedError extends Error {
  constructor(readonly issues: { field: string; message: string }[]) {
    super(`order rejected: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`);
  }
}

/** The subtotal of an order's items, before discounts. */
export function subtotal(order: Order): Money {
  return order.items.reduce<Money>(
    (sum, item) => addMoney(sum, multiplyMoney(item.unitPrice, item.quantity)),
    { amount: 0, currency: order.items[0]?.unitPrice.currency ?? 'EUR' },
  );
}

/** The total after the order's discount code, if it is known. */
export function applyDiscount(order: Order): Money {
  const base = subtotal(order);
  const rate = order.discountCode ? DISCOUNTS[order.discountCode] ?? 0 : 0;
  return multiplyMoney(base, 1 - rate);
}

/** Validates, prices and places an order, then attaches the AI summary. */
export async function placeOrder(order: Order): Promise<{ order: Order; total: Money; summary: string }> {
  const issues = validate(order);
  for (const item of order.items) {
    if (!findProduct(item.sku)) issues.push({ field: 'items', message: `unknown sku ${item.sku}` });
  }
  if (issues.length) throw new OrderRejectedError(issues);
  const placed: Order = { ...order, status: 'placed' };
  const total = applyDiscount(placed);
  log.info('order placed', { orderId: placed.id, total: total.amount });
  const summary = await summarizeOrder(placed);
  return { order: placed, total, summary };
}
