// The round order in words (src/compare/design.js): letters run together,
// longer arm names (compare --arm, --package versions) apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockOrder, describeOrder } from '../../../src/compare/design.js';

test('the order of one-letter arms runs together; longer names are separated by commas', () => {
  assert.equal(describeOrder(blockOrder(2, 2), ['A', 'B']), 'AB BA');
  assert.equal(describeOrder(blockOrder(2, 2), ['0.0.22', '0.0.27']), '0.0.22,0.0.27 0.0.27,0.0.22');
});
