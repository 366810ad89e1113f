// src/export/ncu_report.proto (the team's own description of the .ncu-rep fields warpscope writes
// and reads) against the .proto files of an installed Nsight Compute, read at build time
// (tests/export/CMakeLists.txt: NCU_FILEFORMAT_DIR or the usual install places; both compiled to
// descriptor sets by protoc). Every message of ours must exist in NVIDIA's package with every one
// of our fields at NVIDIA's number with a compatible wire type; field names may differ (2022.3
// calls SourceData's field 6 SMRevision, 2025.3 CudaSmVersion). Skipped without Nsight Compute.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

namespace {

namespace gp = google::protobuf;

bool load(const std::string& path, gp::FileDescriptorSet& set) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return in && set.ParseFromString(bytes.str());
}

/// The wire type a field travels as (what makes two descriptions of one field compatible).
int wire_type(const gp::FieldDescriptor& f) {
  switch (f.type()) {
    case gp::FieldDescriptor::TYPE_INT32: case gp::FieldDescriptor::TYPE_INT64:
    case gp::FieldDescriptor::TYPE_UINT32: case gp::FieldDescriptor::TYPE_UINT64:
    case gp::FieldDescriptor::TYPE_BOOL: case gp::FieldDescriptor::TYPE_ENUM:
      return 0;  // varint (sint* would be zigzag: not used by either)
    case gp::FieldDescriptor::TYPE_FIXED64: case gp::FieldDescriptor::TYPE_SFIXED64:
    case gp::FieldDescriptor::TYPE_DOUBLE:
      return 1;
    case gp::FieldDescriptor::TYPE_FIXED32: case gp::FieldDescriptor::TYPE_SFIXED32:
    case gp::FieldDescriptor::TYPE_FLOAT:
      return 5;
    default:
      return 2;  // length-delimited: strings, bytes, messages
  }
}

TEST(NcuRepProto, OurFieldsAreNsightComputesFields) {
  const std::string installed = NCU_INSTALLED_DESC;
  if (installed.empty()) {
    GTEST_SKIP() << "no Nsight Compute found at build time (set NCU_FILEFORMAT_DIR to its extras/FileFormat "
                    "and re-run cmake): our description of the format is not checked against NVIDIA's";
  }
  gp::FileDescriptorSet ours_set, theirs_set;
  ASSERT_TRUE(load(NCU_OURS_DESC, ours_set)) << NCU_OURS_DESC;
  ASSERT_TRUE(load(installed, theirs_set)) << installed;
  gp::DescriptorPool ours, theirs;
  for (const auto& f : ours_set.file()) ASSERT_NE(ours.BuildFile(f), nullptr) << f.name();
  for (const auto& f : theirs_set.file()) ASSERT_NE(theirs.BuildFile(f), nullptr) << f.name();
  const gp::FileDescriptor* file = ours.FindFileByName("ncu_report.proto");
  ASSERT_NE(file, nullptr);
  int messages = 0, fields = 0;
  for (int m = 0; m < file->message_type_count(); ++m) {
    const gp::Descriptor* mine = file->message_type(m);
    const gp::Descriptor* theirs_msg = nullptr;
    for (const char* package : {"NV.Profiler.Messages.", "NV.Profiler.", "NV.RuleSystem."}) {
      theirs_msg = theirs.FindMessageTypeByName(package + mine->name());
      if (theirs_msg != nullptr) break;
    }
    ASSERT_NE(theirs_msg, nullptr) << mine->name() << " is not a message of " << NCU_FILEFORMAT_FOUND;
    ++messages;
    for (int i = 0; i < mine->field_count(); ++i) {
      const gp::FieldDescriptor* a = mine->field(i);
      const gp::FieldDescriptor* b = theirs_msg->FindFieldByNumber(a->number());
      // Fields of a newer format than the installed one: ProfilerSection.SourceMetrics (13) is in
      // 2025.3's files, not in 2022.3's (which reads the source columns from Metrics, 6).
      if (b == nullptr && mine->name() == "ProfilerSection" && a->name() == "SourceMetrics") {
        std::fprintf(stderr, "note: %s.%s (%d) is not in %s (an older format)\n", mine->name().c_str(),
                     a->name().c_str(), a->number(), NCU_FILEFORMAT_FOUND);
        continue;
      }
      ASSERT_NE(b, nullptr) << mine->name() << "." << a->name() << " (" << a->number() << ") is not a field of "
                            << theirs_msg->full_name();
      EXPECT_EQ(wire_type(*a), wire_type(*b)) << mine->name() << "." << a->name() << " vs " << b->full_name();
      EXPECT_EQ(a->is_repeated(), b->is_repeated()) << mine->name() << "." << a->name();
      // A field NVIDIA requires, we require too (Nsight Compute refuses a message without it).
      if (b->is_required()) {
        EXPECT_TRUE(a->is_required()) << mine->name() << "." << a->name();
      }
      if (a->type() == gp::FieldDescriptor::TYPE_MESSAGE && b->type() == gp::FieldDescriptor::TYPE_MESSAGE) {
        EXPECT_EQ(a->message_type()->name(), b->message_type()->name()) << mine->name() << "." << a->name();
      }
      if (a->name() != b->name())
        std::fprintf(stderr, "note: %s field %d is %s here, %s in %s\n", mine->name().c_str(), a->number(),
                     a->name().c_str(), b->name().c_str(), NCU_FILEFORMAT_FOUND);
      ++fields;
    }
  }
  std::fprintf(stderr, "checked %d messages, %d fields against %s\n", messages, fields, NCU_FILEFORMAT_FOUND);
  EXPECT_GT(messages, 10);
}

}  // namespace
