import { TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { AddressCreate, type AddressPublic } from '../../../contract/addresses';
import { api } from '../api';
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
    handleSubmit,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<z.input<typeof AddressCreate>, unknown, AddressCreate>({
    mode: 'onBlur',
    resolver: zodResolver(AddressCreate),
    defaultValues: {
      title: address?.title ?? '',
      map_link: address?.map_link ?? '',
      description: address?.description ?? '',
    },
  });

  const onSubmit = async (v: AddressCreate) => {
    const body: AddressCreate = { ...v, description: v.description?.trim() || null };
    const save = () => (address ? api.put(`/address/${address.id}`, body) : api.post('/address/', body));
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
        {...register('map_link')}
      />
      <Textarea
        label="Описание"
        placeholder="Как найти, этаж, домофон"
        autosize
        minRows={2}
        maxRows={8}
        {...register('description')}
      />
    </FormModal>
  );
}
