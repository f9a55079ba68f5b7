import { useState } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import { downloadFile } from '../download';
import { TITLES, toastError } from '../notify';
import { IconDownload } from './action-icons';

/** Downloads a CSV export of the API (with the staff token); `url` from urlOf. */
export function CsvButton({
  url,
  fileName,
  label,
  ...props
}: { url: string; fileName: string; label: string } & ButtonProps) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await downloadFile(url, fileName);
    } catch (err) {
      toastError(TITLES.general, err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" leftSection={<IconDownload />} loading={busy} onClick={() => void run()} {...props}>
      {label}
    </Button>
  );
}
