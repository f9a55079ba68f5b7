import { useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { normalizeCertificateCode } from '../../../contract/certificates';
import { refusals } from '../../../contract/texts/ru/refusals';
import { certificatesApi } from '../../../contract/endpoints/certificates';
import { call } from '../api';
import { runChange } from '../mutations';

/** «Оплатить сертификатом»: the certificate pays the booking up to its balance; the rest stays due. */
export function CertificateRedeem({ recordId, onDone }: { recordId: number; onDone: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const redeem = async () => {
    if (!normalizeCertificateCode(code)) return setError(refusals.certificateMalformed);
    setBusy(true);
    const ok = await runChange(
      () => call(certificatesApi.redeem, { params: { id: recordId }, body: { code: code.trim() } }),
      'Оплачено сертификатом',
    );
    setBusy(false);
    if (ok) setCode('');
    onDone();
  };
  return (
    <Group align="flex-start" gap="xs" wrap="wrap">
      <TextInput
        label="Код сертификата"
        placeholder="ABCD-EFGH-JKLM"
        value={code}
        error={error}
        onChange={(e) => {
          setCode(e.currentTarget.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void redeem();
        }}
        w={220}
        styles={{ input: { fontFamily: 'monospace', textTransform: 'uppercase' } }}
      />
      <Button mt={25} variant="light" onClick={() => void redeem()} loading={busy}>
        Оплатить сертификатом
      </Button>
    </Group>
  );
}
