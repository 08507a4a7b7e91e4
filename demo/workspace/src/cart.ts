import { add, money, type Money } from './money.js';
import type { Product } from './catalog.js';

export interface CartLine {
  product: Product;
  quantity: number;
}

export class Cart {
  private readonly lines: CartLine[] = [];

  addProduct(product: Product, quantity = 1): void {
    const existing = this.lines.find((line) => line.product.sku === product.sku);
    if (existing) existing.quantity += quantity;
    else this.lines.push({ product, quantity });
  }

  total(): Money {
    return this.lines.reduce((sum, line) => add(sum, money(line.product.price.cents * line.quantity)), money(0));
  }

  get size(): number {
    return this.lines.length;
  }
}
