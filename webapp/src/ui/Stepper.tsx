import { useT } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { IconMinus, IconPlus } from './icons';
import '../later.css';

export interface StepperProps {
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
  label: string;
  disabled?: boolean;
}

/** −  3  + : the people-count stepper (1..8). */
export function Stepper({ value, min, max, onChange, label, disabled }: StepperProps) {
  const T = useT();
  return (
    <div className="stepper" role="group" aria-label={label}>
      <button
        type="button"
        className="stepper__btn"
        aria-label={T.common.decrease}
        disabled={disabled || value <= min}
        onClick={() => onChange(Math.max(min, value - 1))}
      >
        <IconMinus size={20} />
      </button>
      <output className="stepper__value" aria-live="polite" aria-label={label} data-testid="stepper-value">
        {value}
      </output>
      <button
        type="button"
        className="stepper__btn"
        aria-label={T.common.increase}
        disabled={disabled || value >= max}
        onClick={() => onChange(Math.min(max, value + 1))}
      >
        <IconPlus size={20} />
      </button>
    </div>
  );
}
