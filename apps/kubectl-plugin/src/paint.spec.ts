import { colourWanted, managerColour, paint } from './paint.js';

describe('paint', () => {
  it('colours only on a terminal without NO_COLOR', () => {
    expect(colourWanted(true, undefined)).toBe(true);
    expect(colourWanted(true, '')).toBe(true);
    expect(colourWanted(true, '1')).toBe(false);
    expect(colourWanted(false, undefined)).toBe(false);
  });

  it('leaves text alone when disabled, and wraps it in escapes when enabled', () => {
    expect(paint(false).manager('kubectl')).toBe('kubectl');
    expect(paint(true).manager('kubectl')).toMatch(/^\u001b\[.*kubectl.*\u001b\[\d+m$/);
  });

  it('gives a manager the same colour every time: one picked by its name', () => {
    expect(managerColour('flux-controller')).toBe('cyan');
    expect(managerColour('kubectl')).toBe('blue');
    expect(managerColour('kubectl-set')).toBe('green');
  });
});
