import { Group, NumberInput, Text, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { coordinatesFromMapLink } from '../../../contract/map-coordinates';
import type { z } from 'zod';
import { AddressCreate, type AddressPublic } from '../../../contract/addresses';
import { addressesApi } from '../../../contract/endpoints/addresses';
import { call } from '../api';
import { FormModal } from '../components/FormModal';
import { MESSAGES } from '../notify';
import { runChange } from '../mutations';

export function AddressForm({
  address,
  opened,
  onClose,
}: {
  address?: AddressPublic;
  opened: boolean;
  onClose: () => void;
}) {
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<z.input<typeof AddressCreate>, unknown, AddressCreate>({
    mode: 'onBlur',
    resolver: zodResolver(AddressCreate),
    defaultValues: {
      title: address?.title ?? '',
      map_link: address?.map_link ?? '',
      description: address?.description ?? '',
      latitude: address?.latitude ?? null,
      longitude: address?.longitude ?? null,
    },
  });

  /** A map link that carries coordinates fills the pin, unless it is filled already. */
  const pinFromLink = (link: string) => {
    const c = coordinatesFromMapLink(link);
    if (!c || getValues('latitude') != null || getValues('longitude') != null) return;
    setValue('latitude', c.latitude, { shouldDirty: true });
    setValue('longitude', c.longitude, { shouldDirty: true });
  };

  const onSubmit = async (v: AddressCreate) => {
    // The pin is sent when it changed; left out on a new address, the server takes it from the map link.
    const { latitude, longitude, ...rest } = v;
    const pinChanged =
      (latitude ?? null) !== (address?.latitude ?? null) || (longitude ?? null) !== (address?.longitude ?? null);
    const body: AddressCreate = {
      ...rest,
      description: v.description?.trim() || null,
      ...(pinChanged && { latitude: latitude ?? null, longitude: longitude ?? null }),
    };
    const save = () =>
      address ? call(addressesApi.update, { params: { id: address.id }, body }) : call(addressesApi.create, { body });
    if (await runChange(save, address ? MESSAGES.addressUpdated : MESSAGES.addressAdded)) onClose();
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={address ? 'Редактирование адреса' : 'Добавление адреса'}
      onSubmit={handleSubmit(onSubmit)}
      saveDisabled={address ? !isDirty : false}
      saving={isSubmitting}
    >
      <TextInput
        label="Адрес"
        placeholder="Улица, дом"
        withAsterisk
        data-autofocus
        error={errors.title?.message}
        {...register('title')}
      />
      <TextInput
        label="Ссылка на карту"
        placeholder="https://maps.app.goo.gl/…"
        withAsterisk
        error={errors.map_link?.message}
        {...register('map_link', { onBlur: (e: { target: { value: string } }) => pinFromLink(e.target.value) })}
      />
      <Group grow align="flex-start">
        {(['latitude', 'longitude'] as const).map((name) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field, fieldState }) => (
              <NumberInput
                label={name === 'latitude' ? 'Широта' : 'Долгота'}
                placeholder={name === 'latitude' ? '44.8125' : '20.4612'}
                decimalScale={6}
                allowDecimal
                hideControls
                name={field.name}
                ref={field.ref}
                value={field.value ?? ''}
                onBlur={field.onBlur}
                onChange={(v) => field.onChange(v === '' ? null : Number(v))}
                error={fieldState.error?.message}
              />
            )}
          />
        ))}
      </Group>
      <Textarea
        label="Описание"
        placeholder="Как найти, этаж, домофон"
        autosize
        minRows={2}
        maxRows={8}
        {...register('description')}
      />
      <Text size="xs" c="dimmed">
        Координаты нужны, чтобы перед мастер-классом отправить клиентам точку на карте. Они заполняются сами из ссылки
        Google, Яндекс или OpenStreetMap, если в ней есть координаты.
      </Text>
    </FormModal>
  );
}
