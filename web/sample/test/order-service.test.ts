import { applyDiscount, subtotal } from '../src/services/order-service';
import type { Order } from '../src/models/order';

const order: Order = {
  id: 'o-1',
  customerId: 'c-1',
  status: 'draft',
  createdAt: '2026-01-01T00:00:00Z',
  discountCode: 'WELCOME10',
  items: [{ sku: 'SKU-00001', quantity: 2, unitPrice: { amount: 1250, currency: 'EUR' } }],
};

export function checkTotals(): void {
  if (subtotal(order).amount !== 2500) throw new Error('subtotal');
  if (applyDiscount(order).amount !== 2250) throw new Error('discount');
}
