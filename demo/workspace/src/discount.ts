import { money, type Money } from './money.js';

/** A percentage discount, rounded down to whole cents in the customer's favour. */
export function applyDiscount(total: Money, percent: number): Money {
  const off = Math.ceil((total.cents * percent) / 100);
  return money(total.cents - off, total.currency);
}
