import { Group, Pagination, Text } from '@mantine/core';

/** Pages of a long list: "n из total" and the page buttons (hidden when one page holds everything). */
export function Pager({
  page,
  pageSize,
  total,
  onChange,
}: {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" mt="lg" gap="sm" data-testid="pager">
      <Text size="sm" c="gray.7">
        {first}–{last} из {total}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={(p) => {
            onChange(p);
            window.scrollTo({ top: 0 });
          }}
          size="sm"
          getControlProps={(control) => ({
            'aria-label':
              control === 'previous' ? 'Предыдущая страница' : control === 'next' ? 'Следующая страница' : control,
          })}
          getItemProps={(p) => ({ 'aria-label': `Страница ${p}` })}
        />
      )}
    </Group>
  );
}
