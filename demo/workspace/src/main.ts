import { Cart } from './cart.js';
import { findProduct } from './catalog.js';
import { applyDiscount } from './discount.js';
import { format } from './money.js';

const cart = new Cart();
for (const sku of ['tea-01', 'cup-02', 'tea-01']) {
  const product = findProduct(sku);
  if (product) cart.addProduct(product);
}

export const summary = `${cart.size} lines, total ${format(applyDiscount(cart.total(), 10))}`;
