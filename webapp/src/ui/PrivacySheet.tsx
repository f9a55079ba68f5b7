import { useEffect, useRef, useState } from 'react';
import { Button, Spinner } from '@telegram-apps/telegram-ui';
import { personalDataApi } from '../../../contract/endpoints/personal-data';
import { call, errorText } from '../api';
import { useT } from '../i18n';
import '../../../contract/texts/ru/app-later';
import './personal-data.css';

/** The studio's privacy text (Настройки → Бизнес), loaded when opened: the booking page's first load does not carry it. */
export function PrivacySheet({ onClose }: { onClose: () => void }) {
  const T = useT();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    call(personalDataApi.privacy).then(
      (p) => live && setText(p.text),
      (err: unknown) => live && setError(errorText(err)),
    );
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => {
      live = false;
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  return (
    <div className="sheet-backdrop" onClick={onClose}>
      <div
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="privacy-title"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="privacy-title" className="sheet__title">
          {T.privacy.title}
        </h2>
        <div className="sheet__body">
          {text !== null ? (
            text.split(/\n{2,}/).map((p, i) => <p key={i}>{p}</p>)
          ) : error ? (
            <p role="alert">{T.privacy.failed(error)}</p>
          ) : (
            <Spinner size="m" />
          )}
        </div>
        <Button ref={close} size="l" stretched mode="bezeled" onClick={onClose}>
          {T.privacy.ok}
        </Button>
      </div>
    </div>
  );
}
