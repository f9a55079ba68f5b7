import { describe, expect, it } from 'vitest';
import { contrast, readableOn, readableTheme } from '../../webapp/src/readable-theme';

const IOS_LIGHT = {
  bg_color: '#ffffff',
  secondary_bg_color: '#efeff4',
  section_bg_color: '#ffffff',
  text_color: '#000000',
  hint_color: '#8e8e93',
  link_color: '#007aff',
  button_color: '#007aff',
  button_text_color: '#ffffff',
  destructive_text_color: '#ff3b30',
};
const DARK = {
  bg_color: '#1c1c1d',
  secondary_bg_color: '#000000',
  section_bg_color: '#2c2c2e',
  text_color: '#ffffff',
  hint_color: '#98989e',
  link_color: '#3e88f7',
  button_color: '#3e88f7',
  button_text_color: '#ffffff',
};

describe('readable theme colours (WCAG AA 4.5:1)', () => {
  it('knows the contrast of the issue: hint #999 on #f0f0f0 is 2.5:1', () => {
    expect(contrast('#999999', '#f0f0f0')).toBeCloseTo(2.55, 1);
  });

  it.each([
    ['light', IOS_LIGHT],
    ['dark', DARK],
  ] as const)(
    'every text colour of the %s theme reads on every background, the button text on the button',
    (_, theme) => {
      const out = readableTheme(theme);
      for (const key of ['text_color', 'hint_color', 'link_color'] as const)
        for (const bg of [theme.bg_color, theme.secondary_bg_color, theme.section_bg_color])
          expect(contrast(out[key], bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(out.button_color, out.button_text_color)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('leaves colours that already pass alone and keeps unknown keys', () => {
    const out = readableTheme({ ...IOS_LIGHT, header_bg_color: '#f8f8f8' });
    expect(out.text_color).toBe('#000000');
    expect(out.header_bg_color).toBe('#f8f8f8');
  });

  it('moves a colour darker on light backgrounds and lighter on dark ones, and reads on its own tint', () => {
    const onLight = readableOn('#8e8e93', ['#ffffff']);
    const onDark = readableOn('#555555', ['#000000']);
    expect(contrast(onLight, '#000000')).toBeLessThan(contrast('#8e8e93', '#000000'));
    expect(contrast(onDark, '#ffffff')).toBeLessThan(contrast('#555555', '#ffffff'));
    expect(readableOn('not a colour', ['#ffffff'])).toBe('not a colour');
  });
});
