import { expect, it } from 'vitest';
import { seriesCreatedMessage } from '../../admin/src/forms/ScheduleForm';

it('«Создано N мастер-классов» says N in Russian', () => {
  expect([1, 2, 5, 21, 22, 25].map(seriesCreatedMessage)).toEqual([
    'Создан 1 мастер-класс',
    'Создано 2 мастер-класса',
    'Создано 5 мастер-классов',
    'Создан 21 мастер-класс',
    'Создано 22 мастер-класса',
    'Создано 25 мастер-классов',
  ]);
});
