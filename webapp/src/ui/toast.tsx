import { Snackbar } from '@telegram-apps/telegram-ui';
import { IconCheck, IconError } from './icons';
import { addToast, dismissToast, setToastView, type Toast } from './Toaster';
import '../later.css';

export { clearToasts, dismissToast, type Toast } from './Toaster';

function Toasts({ toasts }: { toasts: Toast[] }) {
  return (
    <>
      {toasts.map((t) => (
        <Snackbar
          key={t.id}
          className={`toast toast--${t.kind}`}
          role={t.kind === 'error' ? 'alert' : 'status'}
          aria-live={t.kind === 'error' ? 'assertive' : 'polite'}
          before={t.kind === 'error' ? <IconError /> : <IconCheck />}
          description={t.description}
          duration={t.kind === 'error' ? 6000 : 3500}
          onClose={() => dismissToast(t.id)}
        >
          {t.title}
        </Snackbar>
      ))}
    </>
  );
}

// The Toaster in App draws toasts with this Snackbar from here on: the module that shows a toast imports toast().
setToastView(Toasts);

/** Shows a toast (Telegram's snackbar); returns its id. */
export const toast = (t: Omit<Toast, 'id'>): number => addToast(t);
