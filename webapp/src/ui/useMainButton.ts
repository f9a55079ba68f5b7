import { useEffect, useRef } from 'react';
import { onMainButton, onSecondaryButton, setMainButton, setSecondaryButton } from '../tg-native';

type ButtonState = { text: string; active: boolean; progress: boolean } | null;

/** One of Telegram's bottom buttons kept in step with a screen's state; hidden when `state` is null or the screen goes away. */
function useBottomButton(
  set: (s: Exclude<ButtonState, null> | null) => void,
  onPressed: (handler: () => void) => () => void,
  state: ButtonState,
  onPress: () => void,
) {
  const press = useRef(onPress);
  useEffect(() => {
    press.current = onPress;
  });
  useEffect(() => onPressed(() => press.current()), [onPressed]);
  const text = state?.text;
  const active = state?.active;
  const progress = state?.progress;
  useEffect(() => {
    set(text === undefined ? null : { text, active: Boolean(active), progress: Boolean(progress) });
  }, [set, text, active, progress]);
  useEffect(() => () => set(null), [set]);
}

/**
 * The screen's primary action on Telegram's MainButton (inside Telegram; the caller shows its own
 * button elsewhere). `state` null hides it; the button is hidden when the screen goes away.
 */
export function useMainButton(state: ButtonState, onPress: () => void) {
  useBottomButton(setMainButton, onMainButton, state, onPress);
}

/**
 * A second action beside the MainButton on Telegram's SecondaryButton (clients of Mini Apps 7.10+,
 * `hasSecondaryButton()`; the caller shows its own button elsewhere).
 */
export function useSecondaryButton(state: ButtonState, onPress: () => void) {
  useBottomButton(setSecondaryButton, onSecondaryButton, state, onPress);
}
