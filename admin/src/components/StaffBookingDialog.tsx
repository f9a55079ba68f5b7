import { useState } from 'react';
import { Checkbox, NumberInput, SegmentedControl, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { recordsApi } from '../../../contract/endpoints/records';
import type { RecordCreate, RecordView } from '../../../contract/records';
import { PEOPLE_MAX, PEOPLE_MIN } from '../../../contract/common';
import { formatDateTime, formatPrice } from '../../../contract/format';
import { call } from '../api';
import { config } from '../config';
import { runChange } from '../mutations';
import { FormModal } from './FormModal';

type Contact = 'phone' | 'telegram';

/** «@username» or a numeric Telegram id, as staff type it; null when it is neither. */
export function parseTelegram(text: string): { telegram_id: number } | { telegram_login: string } | null {
  const value = text.trim().replace(/^@/, '');
  if (/^\d{1,15}$/.test(value) && Number(value) > 0) return { telegram_id: Number(value) };
  if (/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(value)) return { telegram_login: value };
  return null;
}

/** What staff read after booking: the state the rules gave it, the price, and a prepayment's deadline. */
export function bookedMessage(view: RecordView): string {
  const r = view.record;
  const m = view.money;
  const parts = [
    r.state === 'QUEUED' ? `${r.name} — в очереди (мест не хватает)` : `${r.name} записан(а)`,
    `${r.people_count} чел.`,
  ];
  if (m) parts.push(`цена ${formatPrice(m.price)}`);
  if (m && m.required_now > 0 && m.pay_by)
    parts.push(`оплатить ${formatPrice(m.required_now)} до ${formatDateTime(m.pay_by, config.businessTimezone)}`);
  return parts.join(', ');
}

/**
 * «Записать клиента»: a booking for a customer who phones in or writes, through the same command as the
 * mini-app (free seats or the queue, prepayment). A phone number has no field of its own on a booking: it is
 * kept as the first line of the comment, where the chef's list and the booking's view show it.
 */
export function StaffBookingDialog({ scheduleId, onClose }: { scheduleId: number; onClose: () => void }) {
  const [name, setName] = useState('');
  const [contact, setContact] = useState<Contact>('phone');
  const [phone, setPhone] = useState('');
  const [telegram, setTelegram] = useState('');
  const [people, setPeople] = useState<number | string>(PEOPLE_MIN);
  const [comment, setComment] = useState('');
  const [firstTime, setFirstTime] = useState(false);
  const [useCredit, setUseCredit] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const tg = contact === 'telegram' ? parseTelegram(telegram) : null;

  const submit = async () => {
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = 'Укажите имя';
    if (contact === 'phone' && !/^\+?[\d\s()-]{6,20}$/.test(phone.trim()))
      found.phone = 'Укажите телефон: цифры, можно с + в начале';
    if (contact === 'telegram' && !tg) found.telegram = 'Укажите @username или числовой id Telegram';
    if (typeof people !== 'number' || people < PEOPLE_MIN || people > PEOPLE_MAX)
      found.people = `Количество человек: от ${PEOPLE_MIN} до ${PEOPLE_MAX}`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const notes = [contact === 'phone' ? `Телефон: ${phone.trim()}` : '', comment.trim()].filter(Boolean).join('\n');
    const body: RecordCreate = {
      schedule_id: scheduleId,
      name: name.trim(),
      people_count: people as number,
      comment: notes || null,
      is_first_time: firstTime,
      ...(tg ?? {}),
      // The customer's studio credit is theirs to spend: only with their agreement, and only a Telegram id has one.
      ...(tg && 'telegram_id' in tg && { use_credit: useCredit }),
    };
    setSaving(true);
    const ok = await runChange(() => call(recordsApi.create, { body }), bookedMessage, 'Не удалось записать клиента');
    setSaving(false);
    if (ok) onClose();
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title="Записать клиента"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      saving={saving}
    >
      <Stack gap="sm" data-testid="staff-booking">
        <TextInput
          label="Имя"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="staff-booking-contact">
            Как связаться
          </Text>
          <SegmentedControl
            aria-labelledby="staff-booking-contact"
            value={contact}
            onChange={(v) => setContact(v as Contact)}
            data={[
              { value: 'phone', label: 'Телефон' },
              { value: 'telegram', label: 'Telegram' },
            ]}
          />
        </Stack>
        {contact === 'phone' ? (
          <TextInput
            label="Телефон"
            required
            type="tel"
            placeholder="+381 …"
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
            error={errors.phone}
          />
        ) : (
          <TextInput
            label="Telegram"
            description="@username или числовой id"
            required
            value={telegram}
            onChange={(e) => setTelegram(e.currentTarget.value)}
            error={errors.telegram}
          />
        )}
        <NumberInput
          label="Количество человек"
          required
          min={PEOPLE_MIN}
          max={PEOPLE_MAX}
          allowDecimal={false}
          value={people}
          onChange={setPeople}
          error={errors.people}
        />
        <Textarea
          label="Комментарий"
          autosize
          minRows={2}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
        <Checkbox label="Впервые у нас" checked={firstTime} onChange={(e) => setFirstTime(e.currentTarget.checked)} />
        {tg && 'telegram_id' in tg && (
          <Checkbox
            label="Клиент согласился оплатить с баланса в студии"
            checked={useCredit}
            onChange={(e) => setUseCredit(e.currentTarget.checked)}
          />
        )}
      </Stack>
    </FormModal>
  );
}
