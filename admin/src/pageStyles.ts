// Mantine styles used by the staff pages and their dialogs (loaded with the lazy pages,
// not on first load).
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Indicator.css';
// The SegmentedControl's pill is a FloatingIndicator: without its rules it sits 4 px off its label.
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Chip.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Pagination.css';
import '@mantine/core/styles/Progress.css';
import './phone-cards.css';
