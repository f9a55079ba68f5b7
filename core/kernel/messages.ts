/** The domain's refusals and not-founds, with the Russian text the user reads. */
export const MSG = {
  scheduleNotFound: 'Мастер-класс не найден',
  recordNotFound: 'Запись не найдена',
  workshopNotFound: 'Мастер-класс с таким id не найден',
  addressNotFound: 'Адрес с таким id не найден',
  past: 'Мастер-класс уже прошёл: запись нельзя изменить',
  pastBooking: 'Запись на прошедший мастер-класс невозможна',
  alreadyBooked: 'Вы уже записаны на этот мастер-класс',
  cancelled: 'Запись отменена: сначала восстановите её',
  alreadyCancelled: 'Запись уже отменена',
  notCancelled: 'Запись не отменена',
  sessionCancelled: 'Мастер-класс отменён',
  hasFreeDates: 'На этот мастер-класс есть свободные даты: запишитесь на одну из них в приложении',
  paidSessionDelete:
    'У этого мастер-класса есть оплаченные записи: удалить его нельзя, деньги нужно вернуть. Отмените мастер-класс: записи останутся, возвраты отметите в каждой из них.',
} as const;
