/** A customer account. */
export interface Customer {
  id: string;
  email: string;
  name: string;
  tier: 'standard' | 'gold';
}

/** Checks a customer record before it is saved. */
export function validate(customer: Customer): string[] {
  const problems: string[] = [];
  if (!/^[^@\s]+@[^@\s]+$/.test(customer.email)) problems.push('email is not an address');
  if (customer.name.trim() === '') problems.push('name is empty');
  return problems;
}
