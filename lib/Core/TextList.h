//===- TextList.h - a table's rows as an English list -----------*- C++ -*-===//
//
// Private to lib/Core: the error texts that name a table's rows ("faces (1),
// page32 (8) or page64 (16)") join them one way.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_TEXTLIST_H
#define BIRSIM_LIB_CORE_TEXTLIST_H

#include <string>
#include <vector>

namespace birsim::core {

/// `items` joined by ", ", the last by `last` (" or ", " and ", or ", ").
inline std::string textList(const std::vector<std::string> &items,
                            const char *last = " or ") {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i)
    text += (i == 0 ? "" : i + 1 == items.size() ? last : ", ") + items[i];
  return text;
}

} // namespace birsim::core

#endif // BIRSIM_LIB_CORE_TEXTLIST_H
