import { useEffect, useRef } from 'react';
import { onMainButton, setMainButton } from '../tg';

/**
 * The screen's primary action on Telegram's MainButton (inside Telegram; the caller shows its own
 * button elsewhere). `state` null hides it; the button is hidden when the screen goes away.
 */
export function useMainButton(state: { text: string; active: boolean; progress: boolean } | null, onPress: () => void) {
  const press = useRef(onPress);
  useEffect(() => {
    press.current = onPress;
  });
  useEffect(() => onMainButton(() => press.current()), []);
  const text = state?.text;
  const active = state?.active;
  const progress = state?.progress;
  useEffect(() => {
    setMainButton(text === undefined ? null : { text, active: Boolean(active), progress: Boolean(progress) });
  }, [text, active, progress]);
  useEffect(() => () => setMainButton(null), []);
}
