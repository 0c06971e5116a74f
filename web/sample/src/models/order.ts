import type { Money } from '../lib/money';

/** One product line of an order. */
export interface LineItem {
  sku: string;
  quantity: number;
  unitPrice: Money;
}

/** An order as stored and returned by the API. */
export interface Order {
  id: string;
  customerId: string;
  items: LineItem[];
  discountCode?: string;
  status: 'draft' | 'placed' | 'shipped' | 'cancelled';
  createdAt: string;
}

/** Problems found in an order, one message per problem. */
export type ValidationIssue = { field: string; message: string };

/** Checks an order before it is placed. */
export function validate(order: Order): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!order.customerId) issues.push({ field: 'customerId', message: 'is required' });
  if (order.items.length === 0) issues.push({ field: 'items', message: 'an order needs at least one item' });
  order.items.forEach((item, i) => {
    if (!Number.isInteger(item.quantity) || item.quantity < 1) {
      issues.push({ field: `items[${i}].quantity`, message: 'must be a positive integer' });
    }
  });
  return issues;
}
