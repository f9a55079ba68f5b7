import { useState } from 'react';
import { Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { PromoCodePublic } from '../../../contract/promo-codes';
import { promoCodesApi } from '../../../contract/endpoints/promo-codes';
import { workshopsApi } from '../../../contract/endpoints/workshops';
import { formatPrice } from '../../../contract/format';
import { call } from '../api';
import { EmptyState } from '../components/EmptyState';
import { IconEdit, IconPlus } from '../components/icons';
import { PageHeader } from '../components/PageHeader';
import { PromoCodeForm } from '../forms/PromoCodeForm';
import { runChange } from '../mutations';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import { useCurrentUser } from '../session';
import '../pageStyles';
import { useCan } from '../session';

const dayLabel = (day: string) => day.split('-').reverse().join('.');

function validity(p: PromoCodePublic): string {
  if (p.valid_from && p.valid_to) return `с ${dayLabel(p.valid_from)} по ${dayLabel(p.valid_to)}`;
  if (p.valid_from) return `с ${dayLabel(p.valid_from)}`;
  if (p.valid_to) return `по ${dayLabel(p.valid_to)}`;
  return 'без срока';
}

function PromoCard({
  promo,
  titles,
  onEdit,
}: {
  promo: PromoCodePublic;
  titles: Map<number, string>;
  onEdit: () => void;
}) {
  const toggle = () =>
    runChange(
      () => call(promoCodesApi.update, { params: { id: promo.id }, body: { is_active: !promo.is_active } }),
      promo.is_active ? 'Промокод выключен.' : 'Промокод включён.',
    );
  const workshops =
    promo.workshop_ids.length === 0
      ? 'все мастер-классы'
      : promo.workshop_ids.map((id) => titles.get(id) ?? `№${id}`).join(', ');
  return (
    <Card padding="lg" data-testid="promo-card">
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} size="h4" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {promo.code}
          </Title>
          <Badge color={promo.is_active ? 'teal' : 'gray'} variant="light">
            {promo.is_active ? 'Действует' : 'Выключен'}
          </Badge>
        </Group>
        <Text fw={700} size="lg" c="teal.9">
          −{promo.kind === 'percent' ? `${promo.value} %` : formatPrice(promo.value)}
        </Text>
        <Text size="sm">
          <Text span c="gray.7">
            Срок:{' '}
          </Text>
          {validity(promo)}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span c="gray.7">
            Мастер-классы:{' '}
          </Text>
          {workshops}
        </Text>
        <Text size="sm">
          <Text span c="gray.7">
            Использований:{' '}
          </Text>
          {promo.max_uses === null ? promo.uses : `${promo.uses} из ${promo.max_uses}`}
        </Text>
        <Group gap={6}>
          {promo.once_per_customer && (
            <Badge variant="outline" color="gray.7">
              Один раз на клиента
            </Badge>
          )}
          {promo.first_time_only && (
            <Badge variant="outline" color="gray.7">
              Только впервые
            </Badge>
          )}
        </Group>
        <Group gap="xs" mt="auto" pt="xs">
          <Button
            variant="light"
            size="sm"
            leftSection={<IconEdit />}
            onClick={onEdit}
            aria-label={`Изменить ${promo.code}`}
          >
            Изменить
          </Button>
          <Button variant="subtle" color={promo.is_active ? 'red' : 'teal'} size="sm" onClick={toggle}>
            {promo.is_active ? 'Выключить' : 'Включить'}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Промокоды (the owner): every code with its discount, days, workshops and uses; add, edit, switch off. */
export default function PromoCodes() {
  const { isLoading: meLoading } = useCurrentUser();
  const allowed = useCan().can('promo.manage');
  const { data, isLoading } = useApi(promoCodesApi.list, allowed ? {} : null, {
    onError: (err) => toastError(TITLES.general, err),
  });
  const { data: workshops } = useApi(workshopsApi.list, allowed ? { query: { skip: 0, limit: 1000 } } : null);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<PromoCodePublic | null>(null);
  const titles = new Map((workshops?.data ?? []).map((w) => [w.id, w.title]));

  return (
    <>
      <PageHeader title="Промокоды">
        <Button leftSection={<IconPlus />} onClick={() => setAdding(true)}>
          Добавить
        </Button>
      </PageHeader>
      {meLoading || isLoading || !data ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={220} radius="md" />
          ))}
        </SimpleGrid>
      ) : data.data.length === 0 ? (
        <EmptyState text="Промокодов пока нет. Добавьте первый: процент или сумма скидки, сроки и лимит." />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {data.data.map((p) => (
            <PromoCard key={p.id} promo={p} titles={titles} onEdit={() => setEditing(p)} />
          ))}
        </SimpleGrid>
      )}
      {adding && <PromoCodeForm opened onClose={() => setAdding(false)} />}
      {editing && <PromoCodeForm key={editing.id} promo={editing} opened onClose={() => setEditing(null)} />}
    </>
  );
}
