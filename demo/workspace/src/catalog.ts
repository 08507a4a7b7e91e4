import { money, type Money } from './money.js';

export interface Product {
  sku: string;
  name: string;
  price: Money;
}

export const catalog: Product[] = [
  { sku: 'tea-01', name: 'Green tea', price: money(450) },
  { sku: 'cup-02', name: 'Cup', price: money(1200) },
  { sku: 'pot-03', name: 'Teapot', price: money(3900) },
];

export function findProduct(sku: string): Product | undefined {
  return catalog.find((product) => product.sku === sku);
}
