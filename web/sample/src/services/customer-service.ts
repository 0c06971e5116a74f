import { validate, type Customer } from '../models/customer';
import { createLogger } from '../lib/logger';

const log = createLogger('customer-service');
const customers = new Map<string, Customer>();

/** Saves a customer after validation; returns the problems instead of throwing. */
export function saveCustomer(customer: Customer): string[] {
  const problems = validate(customer);
  if (problems.length === 0) {
    customers.set(customer.id, customer);
    log.info('customer saved', { customerId: customer.id });
  }
  return problems;
}

/** A customer by id. */
export function getCustomer(id: string): Customer | undefined {
  return customers.get(id);
}
