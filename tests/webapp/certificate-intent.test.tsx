import { describe, expect, it } from 'vitest';
import { launchIntent } from '../../webapp/src/apply/launch-intent';

const at = (search: string, hash = '') => launchIntent({ search, hash });

describe('the mini-app opened for a gift certificate', () => {
  it("a certificate's link fills in its code: ?cert= (the bot's button) or startapp=cert_", () => {
    expect(at('?cert=abcdefghjklm').cert).toBe('ABCDEFGHJKLM');
    expect(at('?cert=ABCD-EFGH-JKLM').cert).toBe('ABCD-EFGH-JKLM');
    expect(at('', '#tgWebAppStartParam=cert_ABCDEFGHJKLM&tgWebAppVersion=8.0').cert).toBe('ABCDEFGHJKLM');
  });

  it('anything that cannot be a code is ignored, not shown', () => {
    expect(at('?cert=ABC').cert).toBeNull();
    expect(at('?cert=<script>alert(1)</script>').cert).toBeNull();
    expect(at('').cert).toBeNull();
  });

  it('the purchase screen: ?buy=certificate or startapp=buy_certificate', () => {
    expect(at('?buy=certificate').buy).toBe(true);
    expect(at('', '#tgWebAppStartParam=buy_certificate').buy).toBe(true);
    expect(at('?buy=other').buy).toBe(false);
    expect(at('').buy).toBe(false);
  });
});
