/** Form rules of spec §5, written once. */
export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;
export const PASSWORD_MIN = 8;
export const FULL_NAME_MAX = 30;

export const en = {
  invalidEmail: 'Invalid email address',
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 8 characters',
  confirmRequired: 'Please confirm your password',
  mismatch: 'The passwords do not match',
} as const;

export const ru = {
  emailRequired: 'Укажите email',
  invalidEmail: 'Некорректный email адрес',
  passwordRequired: 'Укажите пароль',
  passwordMin: 'Длина пароля должна быть минимум 8 символов',
  confirmRequired: 'Введите пароль еще раз',
  usersMismatch: 'Указанные пароли не совпадают',
  mismatch: 'Пароли не совпадают',
  fullNameMax: 'Максимум 30 символов',
  workshopTitle: 'Укажите название',
  priceMin: 'Цена не может быть отрицательной',
  addressTitle: 'Укажите адрес',
  mapLink: 'Укажите ссылку',
  dateRequired: 'Укажите дату и время',
  workshopRequired: 'Выберите мастер-класс',
  addressRequired: 'Выберите адрес',
  capacityMin: 'Минимум 0',
} as const;
