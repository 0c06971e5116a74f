/** An amount in minor units (cents) of one currency. */
export interface Money {
  amount: number;
  currency: 'EUR' | 'USD' | 'GBP';
}

/** Adds amounts of the same currency. */
export function addMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new Error(`cannot add ${a.currency} to ${b.currency}`);
  return { amount: a.amount + b.amount, currency: a.currency };
}

/** Multiplies an amount, rounding half away from zero to whole cents. */
export function multiplyMoney(a: Money, factor: number): Money {
  return { amount: Math.sign(a.amount * factor) * Math.round(Math.abs(a.amount * factor)), currency: a.currency };
}

/** Formats an amount for people, e.g. `€12.50`. */
export function formatMoney(m: Money, locale = 'en-GB'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: m.currency }).format(m.amount / 100);
}
