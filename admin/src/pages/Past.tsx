import { ScheduleList } from '../components/ScheduleList';

export default function PastPage() {
  return <ScheduleList kind="past" />;
}
