// GENERATED from the warehouse export. Do not edit by hand.
// (The playground expands the row marker below into ~1.3 MB of rows when it loads the sample.)
import type { Money } from '../lib/money';

/** A product of the catalog. */
export interface Product {
  sku: string;
  name: string;
  price: Money;
  weightGrams: number;
}

/** Every product, by SKU order. */
export const PRODUCTS: Product[] = [
  { sku: 'SKU-00001', name: 'Espresso cup', price: { amount: 1250, currency: 'EUR' }, weightGrams: 180 },
  // @rows
];

const bySku = new Map(PRODUCTS.map((p) => [p.sku, p]));

/** A product by SKU, or undefined. */
export function findProduct(sku: string): Product | undefined {
  return bySku.get(sku);
}
