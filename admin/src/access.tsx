import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Capability } from '../../contract/roles';
import {
  IconCalendar,
  IconCash,
  IconChefHat,
  IconDiscount,
  IconGift,
  IconHistory,
  IconHome,
  IconListDetails,
  IconSettings,
  IconUserHeart,
  IconUsers,
} from './components/icons';

/**
 * The admin's pages, in menu order, and the capability each needs (contract/roles.ts): the routes, the
 * menu and «Нет доступа» are built from this one table and the capabilities GET /users/me returns.
 */
export interface Page {
  href: string;
  label: string;
  icon: ComponentType;
  can: Capability;
  component: LazyExoticComponent<ComponentType>;
}

export const HOME = '/';
/** Where a staff member lands whose role has no dashboard (a host): the day's sessions. */
export const DAY_PAGE = '/schedule';

export const PAGES: readonly Page[] = [
  {
    href: HOME,
    label: 'Главная',
    icon: IconHome,
    can: 'stats.read',
    component: lazy(() => import('./pages/Dashboard')),
  },
  {
    href: '/schedule',
    label: 'Расписание',
    icon: IconCalendar,
    can: 'sessions.read',
    component: lazy(() => import('./pages/Schedule')),
  },
  {
    href: '/past',
    label: 'История',
    icon: IconHistory,
    can: 'sessions.read',
    component: lazy(() => import('./pages/Past')),
  },
  {
    href: '/workshops',
    label: 'Мастер-классы',
    icon: IconChefHat,
    can: 'catalog.manage',
    component: lazy(() => import('./pages/Workshops')),
  },
  {
    href: '/customers',
    label: 'Клиенты',
    icon: IconUserHeart,
    can: 'customers.manage',
    component: lazy(() => import('./pages/Customers')),
  },
  {
    href: '/cash',
    label: 'Касса',
    icon: IconCash,
    can: 'cashdesk.read',
    component: lazy(() => import('./pages/CashDesk')),
  },
  {
    href: '/certificates',
    label: 'Сертификаты',
    icon: IconGift,
    can: 'certificates.manage',
    component: lazy(() => import('./pages/Certificates')),
  },
  {
    href: '/settings',
    label: 'Настройки',
    icon: IconSettings,
    can: 'account',
    component: lazy(() => import('./pages/Settings')),
  },
  {
    href: '/admin',
    label: 'Пользователи',
    icon: IconUsers,
    can: 'users.manage',
    component: lazy(() => import('./pages/Users')),
  },
  {
    href: '/promo-codes',
    label: 'Промокоды',
    icon: IconDiscount,
    can: 'promo.manage',
    component: lazy(() => import('./pages/PromoCodes')),
  },
  {
    href: '/audit',
    label: 'Журнал',
    icon: IconListDetails,
    can: 'audit.read',
    component: lazy(() => import('./pages/Audit')),
  },
];

/** The page a location shows (a trailing slash aside), if it is one of the table's. */
export const pageAt = (location: string): Page | undefined =>
  PAGES.find((p) => p.href === (location.replace(/\/$/, '') || HOME));
