import { describe, expect, it } from 'vitest';
import { fitWidths } from '../../src/output/table.js';

describe('fitting a table to the terminal', () => {
  const head = ['ID', 'NAME', 'ADDRESS'];
  const keys = ['id', 'name', 'address'];
  const rows = [['0cc85ca9901b10e520de104d323efa7f', 'Paris restaurants', '53 Avenue Foch, 75003 Paris']];

  it('leaves a table that fits alone', () => {
    expect(fitWidths(head, rows, keys, 200)).toEqual({ widths: [undefined, undefined, undefined], hidden: 0 });
  });

  it('shortens the widest column first and never an id', () => {
    // natural: 32 + 17 + 27 + 2 gaps of 2 = 80; at 70 the address loses 10
    expect(fitWidths(head, rows, keys, 70)).toEqual({ widths: [undefined, undefined, 17], hidden: 0 });
    const tight = fitWidths(head, rows, keys, 60);
    expect(tight.widths[0]).toBeUndefined();
    expect(32 + (tight.widths[1] ?? 17) + (tight.widths[2] ?? 27) + 4).toBeLessThanOrEqual(60);
  });

  it('leaves columns out from the right when even the narrowest widths do not fit', () => {
    // id 32 + name 10 + address 10 + gaps 4 = 56 > 50: address goes
    expect(fitWidths(head, rows, keys, 50)).toEqual({ widths: [undefined, 16], hidden: 1 });
  });

  it('always keeps the first column', () => {
    expect(fitWidths(head, rows, keys, 5).hidden).toBe(2);
  });
});
