/** Amounts are kept in integer cents so sums never drift. */
export interface Money {
  cents: number;
  currency: string;
}

export function money(cents: number, currency = 'EUR'): Money {
  return { cents, currency };
}

export function add(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new Error(`cannot add ${a.currency} to ${b.currency}`);
  return { cents: a.cents + b.cents, currency: a.currency };
}

export function format(value: Money): string {
  return `${(value.cents / 100).toFixed(2)} ${value.currency}`;
}
