import { ScheduleList } from '../components/ScheduleList';
import { SetupBanner } from '../components/SetupBanner';

export default function SchedulePage() {
  return (
    <>
      <SetupBanner />
      <ScheduleList kind="upcoming" />
    </>
  );
}
